/* test_mb_fb.c - the free-body form of a description (hs_model.h free_bodies): the five-box
 * stack offers its bodies with the masses, inertias and gravity of model/mech/stack.hsm and the
 * mass matrix the generic path uses; descriptions with a joint or a force element are refused. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hs_mb_file.h"
#include "mb_gen.h"
#include "mb_test.h"

/* stack.hsm: five 1 kg cubes, inertia 0.0066667 kg m^2 about each axis, gravity (0, 0, -9.81) */
static int stack_info(const hs_fb_info *fb, const double *M, int nq, const char *who)
{
    char what[200];
    int ok = fb->nb == 5 && fb->gravity[0] == 0.0 && fb->gravity[1] == 0.0 && fb->gravity[2] == -9.81;
    for (int b = 0; ok && b < 5; ++b) {
        const hs_fb_body *B = &fb->body[b];
        ok = B->qoff == 7 * b && B->mass == 1.0 && B->inertia[0] == 0.0066667 && B->inertia[1] == 0.0066667
             && B->inertia[2] == 0.0066667;
        /* the mass matrix at the initial state (quaternion 1, 0, 0, 0): m on x, 4 I on p1..p3 */
        for (int i = 0; ok && M && i < 3; ++i) {
            const int x = B->qoff + i, p = B->qoff + 4 + i;
            ok = fabs(M[x * nq + x] - B->mass) < 1e-12 && fabs(M[p * nq + p] - 4.0 * B->inertia[i]) < 1e-12;
        }
    }
    snprintf(what, sizeof what, "%s: free_bodies gives 5 bodies at qoff 0, 7, ..., 28, mass 1 kg, inertia 0.0066667 kg m^2, "
             "gravity (0, 0, -9.81)%s", who, M ? ", and the mass matrix agrees (m on x, 4 I on p at p = 1)" : "");
    return mb_check(ok, what);
}

static int refused(const char *dir, const char *file, const char *why)
{
    static hs_mb_store st;
    static hs_mb_model mb;
    char path[300], what[300];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    hs_model m;
    hs_fb_info fb;
    int ok = hs_mb_load_file("hilstep-mbtest", path, &st, &mb, HS_MB_PACK_AUTO) == 0 && hs_mb_model_init(&m, &mb) == 0;
    ok = ok && m.type->free_bodies == NULL && hs_mb_fn_free_bodies(&m, &fb) != HS_OK;
    snprintf(what, sizeof what, "%s (%s): no free_bodies hook, hs_mb_fn_free_bodies refuses", file, why);
    return mb_check(ok, what);
}

int mb_test_fb(const char *dir)
{
    static hs_mb_store st;
    static hs_mb_model mb;
    static double M[35 * 35], q[35], u[35];
    char path[300];
    int fails = 0;
    snprintf(path, sizeof path, "%s/stack.hsm", dir);
    hs_model m;
    hs_fb_info fb;
    memset(&fb, 0, sizeof fb);
    /* dense (unpacked) so that M is indexed row-major */
    int ok = hs_mb_load_file("hilstep-mbtest", path, &st, &mb, 0) == 0 && hs_mb_model_init(&m, &mb) == 0
             && m.type->free_bodies != NULL && m.d.nq == 35 && m.d.nc == 5
             && m.type->initial(&m, 0.0, q, u, NULL) == HS_OK && m.type->mass(&m, 0.0, q, M) == HS_OK
             && m.type->free_bodies(&m, &fb) == HS_OK;
    fails += mb_check(ok, "stack.hsm loads with a free_bodies hook");
    if (ok) fails += stack_info(&fb, M, 35, "stack.hsm");
    /* the norm rows: row k's gradient is 2 p on body k's quaternion only */
    static double G[5 * 35];
    ok = ok && m.type->constraint(&m, 0.0, q, NULL, G, NULL) == HS_OK;
    for (int k = 0; ok && k < 5; ++k)
        for (int j = 0; j < 35; ++j) {
            const double want = j == 7 * k + 3 ? 2.0 : 0.0;
            if (G[k * 35 + j] != want) ok = 0;
        }
    fails += mb_check(ok, "stack.hsm: constraint row k is body k's quaternion norm (G = 2 p on its p, 0 elsewhere)");
    /* the generated type: the same tables after its check() */
    hs_model g;
    memset(&fb, 0, sizeof fb);
    ok = hs_model_init(&g, &hs_mb_stack_type, NULL) == 0 && hs_mb_stack_type.free_bodies == hs_mb_gen_free_bodies
         && g.type->check(&g) == HS_OK && g.type->free_bodies(&g, &fb) == HS_OK;
    fails += mb_check(ok, "generated stack: free_bodies = hs_mb_gen_free_bodies, HS_OK after check()");
    if (ok) fails += stack_info(&fb, NULL, 35, "generated stack");
    fails += mb_check(hs_mb_chain_type.free_bodies == NULL && hs_mb_bushing_pendulum_type.free_bodies == NULL
                      && hs_mb_ball_type.free_bodies == hs_mb_gen_free_bodies,
                      "generated chain (joints) and bushing_pendulum (a force element): no free_bodies; ball has it");
    fails += refused(dir, "chain.hsm", "joints");
    fails += refused(dir, "bushing_pendulum.hsm", "a free body with a force element");
    return fails;
}
