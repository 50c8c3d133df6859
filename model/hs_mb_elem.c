/* hs_mb_elem.c - the force element table: one row per hs_mb_force_kind, in enum order, from
 * the registration list MB_FORCE_ELEMS (hs_mb_int.h). The parser, the compiler, the evaluator
 * and the generator read this table; test/fuzz/mbfile.dict lists its keywords. */
#include "hs_mb_int.h"

#define MB_ELEM_ROW(n) &mb_el_##n,
const mb_force_elem *const mb_force_elems[HS_MB_FORCE_KINDS] = {MB_FORCE_ELEMS(MB_ELEM_ROW)};
#undef MB_ELEM_ROW
