/* peers.c - build/hilstep-peers (`make bench-peers`): the planar chain of n uniform rods
 * (1 m, 1 kg, pinned at one end, released horizontal, g = 9.81) in hilstep, MuJoCo 2.2.2
 * (joint coordinates, Euler) and ODE 0.16 (dWorldStep, maximal coordinates, hinge joints), in
 * the same process, side by side:
 *   ns/step (median of 3 timed runs), the ratios hilstep/MuJoCo and hilstep/ODE, the energy
 *   change E(T) - E(0) (J, and in % of m g L n^2 / 2, the energy the chain releases hanging
 *   straight: issue 8's yardstick), the largest joint separation over the run (m; MuJoCo's
 *   joint coordinates have none by construction).
 * Options: --n 8,16,... or 1-32 --t 10 --h 1e-3 --methods default,symplectic,... --budget 60 (seconds
 * of stepping per engine and n for the T-second accuracy run; runs that would take longer
 * report ns/step from a shorter timed run and "-" for drift) --no-peers (hilstep only)
 * --max-drift PCT (exit 1 unless every hilstep run completed T without a refused step and
 * |dE| <= PCT % of m g L n^2 / 2: issue 8's bar is --n 1-32 --no-peers --max-drift 1). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hs_models.h"
#include "hs_stepper.h"
#include "tmodel.h"

#ifdef HS_PEERS_MUJOCO
#include <mujoco/mujoco.h>
#endif
#ifdef HS_PEERS_ODE
#include <ode/ode.h>
#endif

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Result of one engine on one chain. */
typedef struct res {
    int ok;          /* 0: could not run (message printed) */
    double ns;       /* ns per step (median of 3 timed runs) */
    int full;        /* 1 when the T-second accuracy run was done */
    int refused;     /* hilstep: steps refused in the accuracy run (it stops at the first) */
    double t_fail;   /* time of the first refused step (s) */
    double dE;       /* E(T) - E(0) (J) */
    double gmax;     /* largest joint separation (m); < 0: not applicable */
} res;

/* An engine: set up the chain of n rods (h), step once, energy, constraint violation, free. */
typedef struct engine {
    const char *name;
    void *(*make)(int n, double h, const char *variant);
    int (*step)(void *e);
    double (*energy)(void *e);
    double (*gmax)(void *e);
    void (*drop)(void *e);
} engine;

static double g_budget = 60.0;

/* Times k steps on a fresh copy, 3 times; the median ns/step. A refused step ends the timed
 * run and only the steps done count (a refused step costs less than a full one); none: -1. */
static double time_steps(const engine *E, int n, double h, const char *v, long k)
{
    double r[3];
    for (int rep = 0; rep < 3; ++rep) {
        void *e = E->make(n, h, v);
        if (!e) return -1;
        long done = 0;
        double t0 = now_ns();
        for (long i = 0; i < k; ++i) {
            if (E->step(e)) break;
            ++done;
        }
        const double dt = now_ns() - t0;
        E->drop(e);
        if (done == 0) return -1;
        if (done < k) fprintf(stderr, "hilstep-peers: %s %s n = %d: a step was refused after %ld timed steps\n", E->name, v, n, done);
        r[rep] = dt / (double)done;
    }
    qsort(r, 3, sizeof r[0], cmpd);
    return r[1];
}

static res run_engine(const engine *E, int n, double h, double T, const char *v)
{
    res R = {0, 0, 0, 0, 0, 0, -1};
    const long steps = lround(T / h);
    /* estimate from 20 steps, then a timed run of at most 2000 steps or 1/10 of the budget */
    void *e = E->make(n, h, v);
    if (!e) return R;
    double t0 = now_ns();
    for (int i = 0; i < 20; ++i) E->step(e);
    double est = (now_ns() - t0) / 20.0;
    E->drop(e);
    long k = (long)fmin(2000.0, fmax(20.0, 0.1 * g_budget * 1e9 / fmax(est, 1.0)));
    R.ns = time_steps(E, n, h, v, k);
    R.ok = R.ns > 0;
    if (!R.ok || R.ns * (double)steps > g_budget * 1e9) return R;
    e = E->make(n, h, v);
    double E0 = E->energy(e), gm = E->gmax(e);
    long i;
    for (i = 0; i < steps; ++i) {
        if (E->step(e)) { R.refused = 1; R.t_fail = (double)(i + 1) * h; break; }
        double g = E->gmax(e);
        gm = g > gm ? g : gm;
    }
    R.full = 1;
    R.dE = E->energy(e) - E0;
    R.gmax = gm;
    E->drop(e);
    return R;
}

/* ---------------- hilstep ---------------- */

typedef struct hsx {
    hs_model m;
    hs_chain_params p;
    hs_stepper s;
    const hs_model *sm; /* the model the stepper sees */
    tm_view view;
    int *bb;
    hs_real *scratch, *R, *g;
    int *I;
} hsx;

static int method_of(const char *v, hs_stepper_def *d)
{
    if (!strcmp(v, "default")) return 0;
    for (int i = 0; i < HS_METHOD_COUNT; ++i)
        if (!strcmp(v, hs_method_name((hs_method)i))) {
            d->method = (hs_method)i;
            if (d->method == HS_METHOD_SPOOK) d->stab = HS_STAB_NONE; /* its own stabilization */
            return 0;
        }
    return -1;
}

static void hs_drop(void *p)
{
    hsx *x = p;
    if (!x) return;
    free(x->bb); free(x->scratch); free(x->R); free(x->I); free(x->g); free(x);
}

static void *hs_make(int n, double h, const char *v)
{
    hsx *x = calloc(1, sizeof *x);
    if (!x) return NULL;
    if (hs_model_init(&x->m, &hs_chain_type, &x->p) || hs_model_set_param(&x->m, "n", (hs_real)n)) {
        hs_drop(x); return NULL;
    }
    hs_stepper_def d = hs_stepper_default_def();
    d.h = (hs_real)h;
    /* the cost of the step, also past the default's range check at init (which refuses the
     * ladder, whose cells fold flat, and the long chains at this h) */
    d.max_h_omega = HS_R(0.0);
    if (method_of(v, &d)) { fprintf(stderr, "hilstep-peers: unknown method %s\n", v); hs_drop(x); return NULL; }
    size_t nr, ni;
#ifdef HS_STEPPER_SIZING_INTS
    /* the stepper reads dims and the packed block convention itself */
    x->sm = &x->m;
    {
        /* the sparse analysis' size query needs more scratch than the stack default */
        const size_t nt = (size_t)1 << 21;
        int *tmp = malloc(sizeof(int) * nt);
        const int wrc = tmp ? hs_stepper_workspace_tmp(&d, x->sm, tmp, nt, &nr, &ni) : HS_E_SIZE;
        free(tmp);
        if (wrc) { hs_drop(x); return NULL; }
    }
#else
    /* the landed stepper knows dense, fixed-size models only: hand it the dense view */
    x->bb = malloc(sizeof(int) * HS_CHAIN_BLOCK_INTS(HS_CHAIN_N_MAX));
    x->scratch = malloc(sizeof(hs_real) * (size_t)(2 * HS_CHAIN_QQ_REALS(n) + HS_CHAIN_CQ_REALS(n)));
    if (!x->bb || !x->scratch
        || tm_view_init(&x->view, &x->m, x->bb, HS_CHAIN_BLOCK_INTS(HS_CHAIN_N_MAX), x->scratch,
                        2 * HS_CHAIN_QQ_REALS(n) + HS_CHAIN_CQ_REALS(n))) {
        hs_drop(x); return NULL;
    }
    x->sm = &x->view.m;
    nr = (size_t)HS_STEPPER_REALS(3 * n, 2 * n, 0);
    ni = (size_t)HS_STEPPER_INTS(3 * n, 2 * n);
#endif
    x->R = malloc(sizeof(hs_real) * nr);
    x->I = malloc(sizeof(int) * ni);
    x->g = malloc(sizeof(hs_real) * (size_t)(2 * n));
    if (!x->R || !x->I || !x->g) { hs_drop(x); return NULL; }
    int rc = hs_stepper_init(&x->s, &d, x->sm, HS_R(0.0), x->R, nr, x->I, ni);
    if (rc) {
        fprintf(stderr, "hilstep-peers: hilstep init (n = %d): %s\n", n, hs_status_str(rc));
        hs_drop(x); return NULL;
    }
    return x;
}

static int hs_step1(void *p) { return hs_stepper_step(&((hsx *)p)->s, NULL); }

static double hs_energy1(void *p)
{
    hsx *x = p;
    hs_real E;
    if (hs_chain_type.energy(&x->m, x->s.t, x->s.q, x->s.u, NULL, &E)) return NAN;
    return (double)E;
}

static double hs_gmax1(void *p)
{
    hsx *x = p;
    if (hs_stepper_residual(&x->s, x->g)) return NAN;
    double m = 0;
    for (int i = 0; i < x->s.nc; ++i) m = fmax(m, fabs((double)x->g[i]));
    return m;
}

static const engine ENG_HS = {"hilstep", hs_make, hs_step1, hs_energy1, hs_gmax1, hs_drop};

/* ---------------- MuJoCo 2.2.2: joint coordinates, Euler ---------------- */
#ifdef HS_PEERS_MUJOCO
typedef struct mjx { mjModel *m; mjData *d; } mjx;

static void mjx_drop(void *p)
{
    mjx *x = p;
    if (!x) return;
    if (x->d) mj_deleteData(x->d);
    if (x->m) mj_deleteModel(x->m);
    free(x);
}

/* Nested bodies, one hinge about y at each body's origin (the rod's tail), the rod's mass at
 * its middle with m L^2 / 12 about the hinge axis; gravity -z, contacts off, no damping.
 * MuJoCo 2.2.2's XML parser refuses nesting deeper than about 100 elements, so the chain is
 * written as files of MJ_PART bodies, each including the next at its innermost body (the
 * depth limit is per parsed file). */
#define MJ_PART 40
static void *mjx_make(int n, double h, const char *v)
{
    (void)v;
    const int nparts = (n + MJ_PART - 1) / MJ_PART;
    size_t cap = 1024 + (size_t)MJ_PART * 256;
    char *xml = malloc(cap);
    mjVFS *vfs = malloc(sizeof *vfs);
    mjx *x = calloc(1, sizeof *x);
    if (!xml || !vfs || !x) { free(xml); free(vfs); free(x); return NULL; }
    mj_defaultVFS(vfs);
    for (int part = -1; part < nparts; ++part) {
        size_t o = 0;
        char name[32];
        if (part < 0) {
            snprintf(name, sizeof name, "chain.xml");
            o = (size_t)snprintf(xml, cap,
                "<mujoco model=\"chain\"><compiler angle=\"radian\"/>"
                "<option timestep=\"%.17g\" integrator=\"Euler\" gravity=\"0 0 -9.81\">"
                "<flag contact=\"disable\" energy=\"enable\"/></option>"
                "<worldbody><include file=\"part0.xml\"/></worldbody></mujoco>", h);
        } else {
            snprintf(name, sizeof name, "part%d.xml", part);
            const int i0 = part * MJ_PART, i1 = i0 + MJ_PART < n ? i0 + MJ_PART : n;
            o = (size_t)snprintf(xml, cap, "<mujoco>");
            for (int i = i0; i < i1; ++i)
                o += (size_t)snprintf(xml + o, cap - o,
                    "<body pos=\"%d 0 0\"><joint type=\"hinge\" axis=\"0 1 0\" pos=\"0 0 0\"/>"
                    "<inertial pos=\"0.5 0 0\" mass=\"1\" diaginertia=\"5e-5 %.17g %.17g\"/>",
                    i == 0 ? 0 : 1, 1.0 / 12.0, 1.0 / 12.0);
            if (part + 1 < nparts)
                o += (size_t)snprintf(xml + o, cap - o, "<include file=\"part%d.xml\"/>", part + 1);
            for (int i = i0; i < i1; ++i) o += (size_t)snprintf(xml + o, cap - o, "</body>");
            o += (size_t)snprintf(xml + o, cap - o, "</mujoco>");
        }
        if (mj_makeEmptyFileVFS(vfs, name, (int)o)) { free(xml); mj_deleteVFS(vfs); free(vfs); free(x); return NULL; }
        memcpy(vfs->filedata[vfs->nfile - 1], xml, o);
    }
    char err[1000] = "";
    x->m = mj_loadXML("chain.xml", vfs, err, sizeof err);
    mj_deleteVFS(vfs);
    free(vfs);
    free(xml);
    if (!x->m) { fprintf(stderr, "hilstep-peers: MuJoCo: %s\n", err); free(x); return NULL; }
    if (x->m->nbody != n + 1 || x->m->njnt != n) { fprintf(stderr, "hilstep-peers: MuJoCo: %d bodies\n", x->m->nbody); mjx_drop(x); return NULL; }
    x->d = mj_makeData(x->m);
    if (!x->d) { mjx_drop(x); return NULL; }
    mj_forward(x->m, x->d);
    return x;
}

static int mjx_step(void *p)
{
    mjx *x = p;
    mj_step(x->m, x->d);
    return 0;
}

static double mjx_energy(void *p)
{
    mjx *x = p;
    mj_forward(x->m, x->d); /* energy of the current state (mj_step's is of the step's start) */
    return x->d->energy[0] + x->d->energy[1];
}

static double mjx_gmax(void *p) { (void)p; return -1.0; }

static const engine ENG_MJ = {"mujoco", mjx_make, mjx_step, mjx_energy, mjx_gmax, mjx_drop};
#endif

/* ---------------- ODE 0.16: dWorldStep, maximal coordinates, hinges ---------------- */
#ifdef HS_PEERS_ODE
typedef struct odx { dWorldID w; int n; dBodyID *b; dJointID *j; } odx;

static void ode_drop1(void *p)
{
    odx *x = p;
    if (!x) return;
    if (x->w) dWorldDestroy(x->w);
    free(x->b); free(x->j); free(x);
}

/* Bodies at the rods' centres, hinges about z at the joints, gravity -y, ODE's default ERP
 * (0.2) and CFM; the rod's inertia about its own axis (irrelevant in plane) is 5e-5. */
static void *ode_make1(int n, double h, const char *v)
{
    (void)h; (void)v;
    odx *x = calloc(1, sizeof *x);
    if (!x) return NULL;
    x->n = n;
    x->b = calloc((size_t)n, sizeof *x->b);
    x->j = calloc((size_t)n, sizeof *x->j);
    x->w = dWorldCreate();
    if (!x->b || !x->j) { ode_drop1(x); return NULL; }
    dWorldSetGravity(x->w, 0, -9.81, 0);
    for (int i = 0; i < n; ++i) {
        dMass mm;
        dMassSetParameters(&mm, 1.0, 0, 0, 0, 5e-5, 1.0 / 12.0, 1.0 / 12.0, 0, 0, 0);
        x->b[i] = dBodyCreate(x->w);
        dBodySetMass(x->b[i], &mm);
        dBodySetPosition(x->b[i], i + 0.5, 0, 0);
        x->j[i] = dJointCreateHinge(x->w, 0);
        dJointAttach(x->j[i], x->b[i], i ? x->b[i - 1] : 0);
        dJointSetHingeAnchor(x->j[i], i, 0, 0);
        dJointSetHingeAxis(x->j[i], 0, 0, 1);
    }
    return x;
}

static double g_ode_h;
static int ode_step1(void *p) { dWorldStep(((odx *)p)->w, g_ode_h); return 0; }

static double ode_energy1(void *p)
{
    odx *x = p;
    double E = 0;
    for (int i = 0; i < x->n; ++i) {
        const dReal *pos = dBodyGetPosition(x->b[i]), *v = dBodyGetLinearVel(x->b[i]);
        const dReal *w = dBodyGetAngularVel(x->b[i]), *R = dBodyGetRotation(x->b[i]);
        /* body-frame angular velocity R^T w (R is 3x4 row-major) */
        double wb[3], I[3] = {5e-5, 1.0 / 12.0, 1.0 / 12.0};
        for (int k = 0; k < 3; ++k) wb[k] = R[0 * 4 + k] * w[0] + R[1 * 4 + k] * w[1] + R[2 * 4 + k] * w[2];
        E += 0.5 * (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]) + 9.81 * pos[1];
        for (int k = 0; k < 3; ++k) E += 0.5 * I[k] * wb[k] * wb[k];
    }
    return E;
}

static double ode_gmax1(void *p)
{
    odx *x = p;
    double m = 0;
    for (int i = 0; i < x->n; ++i) {
        dVector3 a, b;
        dJointGetHingeAnchor(x->j[i], a);
        dJointGetHingeAnchor2(x->j[i], b);
        m = fmax(m, sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2])));
    }
    return m;
}

static const engine ENG_ODE = {"ode", ode_make1, ode_step1, ode_energy1, ode_gmax1, ode_drop1};
#endif

/* ---------------- table ---------------- */

static void cell_drift(const res *r, double yard)
{
    if (!r->ok) { printf(" %10s %8s", "n/a", ""); return; }
    if (!r->full) { printf(" %10s %8s", "-", ""); return; }
    if (r->refused) { printf(" %10s %8.3g", "refused@", r->t_fail); return; }
    printf(" %+10.3g %7.2f%%", r->dE, 100.0 * r->dE / yard);
}

static void cell_g(const res *r)
{
    if (!r->ok || !r->full) printf(" %9s", "-");
    else if (r->gmax < 0) printf(" %9s", "0 (jc)");
    else printf(" %9.2e", r->gmax);
}

int main(int argc, char **argv)
{
    int ns[HS_CHAIN_N_MAX], nn = 0, peers = 1;
    double T = 10.0, h = 1e-3, max_drift = -1.0;
    int over = 0;
    char methods[256] = "default";
    const char *nlist = "8,16,32,64,128";
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--n") && i + 1 < argc) nlist = argv[++i];
        else if (!strcmp(argv[i], "--t") && i + 1 < argc) T = atof(argv[++i]);
        else if (!strcmp(argv[i], "--h") && i + 1 < argc) h = atof(argv[++i]);
        else if (!strcmp(argv[i], "--budget") && i + 1 < argc) g_budget = atof(argv[++i]);
        else if (!strcmp(argv[i], "--methods") && i + 1 < argc) snprintf(methods, sizeof methods, "%s", argv[++i]);
        else if (!strcmp(argv[i], "--no-peers")) peers = 0;
        else if (!strcmp(argv[i], "--max-drift") && i + 1 < argc) max_drift = atof(argv[++i]);
        else { fprintf(stderr, "usage: hilstep-peers [--n 8,16,...] [--t 10] [--h 1e-3] [--budget 60] [--methods default,symplectic,...] [--no-peers] [--max-drift PCT]\n"); return 2; }
    }
    for (const char *p = nlist; *p;) {
        char *e;
        long v = strtol(p, &e, 10), w = v;
        if (*e == '-') w = strtol(e + 1, &e, 10); /* a range a-b */
        if (v < 1 || w > HS_CHAIN_N_MAX || w < v || (*e && *e != ',')) {
            fprintf(stderr, "hilstep-peers: --n: expected n or a-b in 1..%d, comma separated\n", HS_CHAIN_N_MAX);
            return 2;
        }
        for (long k = v; k <= w; ++k) {
            if (nn >= (int)(sizeof ns / sizeof ns[0])) { fprintf(stderr, "hilstep-peers: --n: too many sizes\n"); return 2; }
            ns[nn++] = (int)k;
        }
        p = strchr(p, ',');
        if (!p) break;
        ++p;
    }
    if (!(T > 0) || !(h > 0) || !(g_budget > 0)) { fprintf(stderr, "hilstep-peers: --t, --h, --budget must be > 0\n"); return 2; }
    hs_stepper_def d0 = hs_stepper_default_def();
    printf("chain of n rods (1 m, 1 kg, released horizontal, g = 9.81), h = %g s, T = %g s, same process\n", h, T);
    printf("hilstep default: method %s, form %s, stab %s%s\n", hs_method_name(d0.method),
           hs_form_name(d0.form), hs_stab_name(d0.stab),
#ifdef HS_STEPPER_SIZING_INTS
           " (model with its block pattern)"
#else
           " (dense view of the chain: the landed stepper reads dense fixed-size models only)"
#endif
    );
#ifdef HS_PEERS_ODE
    dInitODE2(0);
    g_ode_h = h;
    if (peers) {
        dWorldID w = dWorldCreate();
        printf("ODE %s: dWorldStep, ERP %g, CFM %g (defaults)\n", "0.16", (double)dWorldGetERP(w), (double)dWorldGetCFM(w));
        dWorldDestroy(w);
    }
#endif
#ifdef HS_PEERS_MUJOCO
    if (peers) printf("MuJoCo %s: joint coordinates, Euler\n", mj_versionString());
#endif
    printf("dE = E(T) - E(0) in J and in %% of m g L n^2 / 2; max|g| = largest joint separation (m) over the run;\n"
           "'-' = not run (would exceed --budget %g s), refused@ = time of the first refused step (s)\n\n", g_budget);
    printf("%4s %-11s %11s %11s %11s %8s %8s %10s %8s %10s %8s %10s %8s %9s %9s\n", "n", "hs-method",
           "hs ns/step", "mj ns/step", "ode ns/step", "hs/mj", "hs/ode", "hs dE", "", "mj dE", "", "ode dE", "",
           "hs max|g|", "ode max|g|");
    for (int k = 0; k < nn; ++k) {
        const int n = ns[k];
        const double yard = 1.0 * 9.81 * 1.0 * n * n / 2.0;
        res rm = {0, 0, 0, 0, 0, 0, -1}, ro = {0, 0, 0, 0, 0, 0, -1};
#ifdef HS_PEERS_MUJOCO
        if (peers) rm = run_engine(&ENG_MJ, n, h, T, "");
#endif
#ifdef HS_PEERS_ODE
        if (peers) ro = run_engine(&ENG_ODE, n, h, T, "");
#endif
        char ml[256];
        snprintf(ml, sizeof ml, "%s", methods);
        for (char *v = strtok(ml, ","); v; v = strtok(NULL, ",")) {
            res rh = run_engine(&ENG_HS, n, h, T, v);
            printf("%4d %-11s", n, v);
            if (rh.ok) printf(" %11.0f", rh.ns); else printf(" %11s", "n/a");
            if (rm.ok) printf(" %11.0f", rm.ns); else printf(" %11s", "n/a");
            if (ro.ok) printf(" %11.0f", ro.ns); else printf(" %11s", "n/a");
            if (rh.ok && rm.ok) printf(" %8.3g", rh.ns / rm.ns); else printf(" %8s", "-");
            if (rh.ok && ro.ok) printf(" %8.3g", rh.ns / ro.ns); else printf(" %8s", "-");
            if (max_drift >= 0 && !(rh.ok && rh.full && !rh.refused && fabs(100.0 * rh.dE / yard) <= max_drift))
                ++over;
            cell_drift(&rh, yard);
            cell_drift(&rm, yard);
            cell_drift(&ro, yard);
            cell_g(&rh);
            cell_g(&ro);
            printf("\n");
            fflush(stdout);
        }
    }
    if (max_drift >= 0) {
        printf("hilstep runs over %g %% of m g L n^2 / 2, refused or not run: %d\n", max_drift, over);
        return over ? 1 : 0;
    }
    return 0;
}
