/* mb_test.h - the multibody suite's checks (host, hosted C) on the one harness
 * (test/unit/hs_test.h); test/mb/mb_main.c is the suite's table. */
#ifndef MB_TEST_H
#define MB_TEST_H
#include "hs_test.h"
#include "hs_types.h"
/* Prints "ok|FAIL <what>" and returns 1 on failure. */
#define mb_check(ok, what) hs_test_named((ok) ? 1 : 0, (what))
int mb_test_deriv(void);
/* rt: build/hilstep-rt (may be NULL) for the one-exit-status check */
int mb_test_mech(const char *dir, const char *sim, const char *gen, const char *rt);
/* method dvp on [WM]'s cases (test_mb_dvp.c) */
int mb_test_dvp(const char *dir);
/* Generated tables (make mb-gen) up to date with dir's descriptions, and their bits on the host. */
int mb_test_gen(const char *dir, const char *gen);
/* Analytic derivatives of D against central differences (test_mb_deriv.c): bad count. */
struct hs_mb_desc;
int mb_deriv_check(const struct hs_mb_desc *D, int trials);
/* The same with the inputs in (HS_MB_MAX_NIN values) at every trial instead of random ones. */
int mb_deriv_check_in(const struct hs_mb_desc *D, int trials, const hs_real *in);
/* At rest, zero inputs: f = -dV/dq of the energy's potential: bad count. */
int mb_potential_check(const struct hs_mb_desc *D, int trials);
/* The .hsm language of issue 19 (params, signals, new elements) and the quarter car. */
int mb_test_lang(const char *dir);
/* The planar fast evaluators against the general ones on dir's descriptions (test_mb_fast.c). */
int mb_test_fast(const char *dir);
/* The free-body form (free_bodies) of stack.hsm, refused with joints or forces (test_mb_fb.c). */
int mb_test_fb(const char *dir);
/* The default method's free-body path (rt/hs_fb.c) against analytic answers (test_mb_fbstep.c). */
int mb_test_fbstep(const char *dir);
/* Every row of the joint and force element tables declares every property (test_mb_elem.c). */
int mb_test_elem(void);
/* acc outputs of jointed, hinged and free bodies against closed forms (test_mb_acc.c). */
int mb_test_acc(void);
/* The aero element: a coast-down and the force against closed forms, refusals (test_mb_aero.c). */
int mb_test_aero(void);
/* The powertrain elements: engine map, gearbox launch and gear change, open and locking
 * differentials against closed forms, derivatives, refusals (test_mb_pt.c); with dir (model/mech)
 * also a launch of dir/vehicles/powertrain/car_pt.hsm. */
int mb_test_pt(const char *dir);
#endif
