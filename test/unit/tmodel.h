/* tmodel.h - test helpers for the model interface v2: block patterns expanded to dense, and a
 * dense view of a blocked, dims()-sized model for code that only knows dense fixed-size
 * models (the stepper before it reads dims/blocks). Freestanding (runs on the boards too). */
#ifndef TMODEL_H
#define TMODEL_H

#include "hs_model.h"

/* The model's block pattern, or the one-block dense pattern when it declares none. */
int tm_blocks(const hs_model *m, hs_blocks *b, int *buf, int nbuf);
/* Expands a packed nq x nq matrix (block list qq of b) into dense row-major D (nq x nq). */
void tm_unpack_qq(const hs_blocks *b, const hs_real *packed, hs_real *D);
/* Expands a packed G (block list cq of b) into dense row-major D (nc x nq). */
void tm_unpack_cq(const hs_blocks *b, const hs_real *packed, hs_real *D);
/* 1 when entry (i, j) of an nq x nq matrix lies in a declared qq block (cq when cq = 1). */
int tm_in_block(const hs_blocks *b, int cq, int i, int j);
/* Checks a pattern's structure: sizes nq, nc; block starts increasing from 0 to nq / nc; every
 * diagonal qq block listed; qq symmetric; no block listed twice. 0 when well formed, else the
 * number of the first rule broken (1-based). */
int tm_blocks_check(const hs_blocks *b, int nq, int nc);

/* A dense, fixed-size view of model `inner`: type T is a copy with nq..nout = inner's instance
 * sizes, no dims/blocks, matrices expanded to dense. Storage is the caller's. */
typedef struct tm_view {
    hs_model_type T;
    hs_model m;           /* hand this to the stepper */
    const hs_model *inner;
    hs_blocks b;
    hs_real *pk;          /* packed scratch: 2 qq sizes + 1 cq size */
} tm_view;
/* Reals of scratch tm_view_init needs for the pattern b. */
int tm_view_scratch(const hs_blocks *b);
/* Builds the view; bbuf (nbuf ints) holds the pattern, scratch (nscratch reals) the packed
 * matrices. HS_E_SIZE when either is too small. */
int tm_view_init(tm_view *v, const hs_model *inner, int *bbuf, int nbuf, hs_real *scratch,
                 int nscratch);

#endif
