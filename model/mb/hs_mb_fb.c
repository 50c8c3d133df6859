/* hs_mb_fb.c - the free-body form of a description (hs_model.h hs_fb_info): a description made
 * only of spatial bodies under uniform gravity offers its bodies' coordinates, masses and
 * inertias, so that the stepper and the contact stage can work in body velocities. */
#include "hs_mb_int.h"

void hs_mb_fb_compile(hs_mb_model *mb)
{
    const hs_mb_desc *D = mb->desc;
    mb->nfb = 0;
    int ok = (int)((D->dim == 3) && (D->njoints == 0) && (D->nforces == 0) && (D->nbodies > 0)
             && (D->nbodies <= HS_MB_MAX_BODIES) && (mb->nb == D->nbodies) && (mb->nz == 0)
             && (mb->nc == D->nbodies) && (mb->nrow == D->nbodies));
    for (int b = 0; (ok != 0) && (b < D->nbodies); ++b) {
        const hs_mb_body *B = &D->bodies[b];
        const hs_mb_row *R = &mb->rows[b];
        /* row b is body b's norm, its 7 coordinates consecutive */
        ok = (int)((B->kind == HS_MB_SPATIAL) && (R->kind == HS_MB_ROW_NORM) && (R->body == b)
             && ((mb->qoff[b + 1] - mb->qoff[b]) == 7) && (B->mass > HS_R(0.0)) && (B->inertia[0] > HS_R(0.0))
             && (B->inertia[1] > HS_R(0.0)) && (B->inertia[2] > HS_R(0.0)));
        if (ok != 0) {
            hs_fb_body *F = &mb->fb[b];
            F->qoff = mb->qoff[b];
            F->mass = B->mass;
            for (int i = 0; i < 3; ++i) {
                F->inertia[i] = B->inertia[i];
            }
        }
    }
    mb->nfb = (ok != 0) ? D->nbodies : 0;
}

int hs_mb_fn_free_bodies(const hs_model *m, hs_fb_info *fb)
{
    const hs_mb_model *mb = (const hs_mb_model *)m->desc;
    if ((mb == NULL) || (fb == NULL) || (mb->nfb <= 0)) {
        return HS_E_MODEL;
    }
    fb->nb = mb->nfb;
    fb->body = mb->fb;
    for (int i = 0; i < 3; ++i) {
        fb->gravity[i] = mb->desc->gravity[i];
    }
    return HS_OK;
}
