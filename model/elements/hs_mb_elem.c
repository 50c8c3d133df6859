/* hs_mb_elem.c - the element tables: one row per kind, indexed by kind, expanded from the kind
 * lists (model/mb/hs_mb_kinds.h). The parser, the compiler, the evaluator and the generator
 * read these tables; the fuzzer's dictionary takes their keywords from the files' names
 * (test/fuzz/run_fuzz.sh). A new element is its file model/elements/hs_mb_el_<name>.c (force) or
 * hs_mb_jt_<name>.c (joint) and one row of its list (model/FORMAT.md "Adding an element
 * kind"; a kind with auxiliary states says so in that row); its row in its own file declares every property the layer reads (hs_mb_int.h;
 * mb-test refuses a row that leaves one undeclared). */
#include "hs_mb_int.h"

#define MB_KIND_ROW(id, value, row) &row,
#define MB_FKIND_ROW(id, value, row, st) &row,

/* MISRA Ref 9.3.1 [every element listed] */
const mb_force_elem *const mb_force_elems[HS_MB_FORCE_KINDS] = {HS_MB_FORCE_LIST(MB_FKIND_ROW)};

/* By kind, from the same rows: <row>_states where st = 1, NULL where st = 0. */
/* MISRA Ref 20.10.1 [the st flag of a kind row selects its entry] */
#define MB_STATES_ROW(id, value, row, st) MB_STATES_OF_##st(row),
#define MB_STATES_OF_0(row) NULL
/* MISRA Ref 20.7.1 [X-macro parameter is an identifier] */
#define MB_STATES_OF_1(row) &row##_states
/* MISRA Ref 9.3.1 [every element listed] */
const mb_force_states *const mb_force_states_of[HS_MB_FORCE_KINDS] = {HS_MB_FORCE_LIST(MB_STATES_ROW)};

/* MISRA Ref 9.3.1 [every element listed] */
const mb_joint_elem *const mb_joint_elems[HS_MB_JOINT_KINDS] = {HS_MB_JOINT_LIST(MB_KIND_ROW)};

int mb_force_nz(const hs_mb_force *E)
{
    const int k = (int)E->kind;
    if ((k < 0) || (k >= (int)HS_MB_FORCE_KINDS) || (mb_force_states_of[k] == NULL)) { return 0; }
    const mb_force_states *st = mb_force_states_of[k];
    return (st->nz_of != NULL) ? st->nz_of(E) : st->nz;
}
