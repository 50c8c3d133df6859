/* plant_unit.c - build/hilstep-plant-unit: hil/hs_plant.c's guard against outputs the wire must
 * not carry (issue 16), driven through the plant API the ports use, under ASan + UBSan.
 *
 * 1. A body launched at vel = 1e300,1e300 with an energy output: E = m |v|^2 / 2 overflows to
 *    Inf from the first state on. Every frame built must decode (no NaN/Inf on the wire), the
 *    first fault_hold - 1 frames hold (FAULT) the initial outputs' stand-ins (the fallbacks),
 *    the fault_hold-th is the safe frame (SAFE|FINAL), exit status 4.
 * 2. The pendulum of [L1] (unit mass, unit rod, g = 10, released from the horizontal) with
 *    bob.y limited to [-0.5, 0.5]: the bob leaves the range at the angle pi/6 below the
 *    horizontal, at t* = integral_0^{pi/6} dphi / sqrt(2 g sin phi) (energy conservation,
 *    evaluated by Simpson's rule after phi = s^2). The first refused frame must be the first
 *    step past t*, no value outside [-0.5, 0.5] is sent, the held value is the last one in range.
 * Prints "plant-unit: N passed, N failed". */
#include "hs_frame.h"
#include "hs_mb_parse.h"
#include "hs_plant.h"
#include "hs_test.h"

#include <math.h>
#include <stdio.h>
#include <string.h>


static hs_mb_store g_store;
static hs_mb_model g_mb;
static _Alignas(16) unsigned char g_pblock[4096];
static hs_real g_reals[HS_STEPPER_REALS(HS_PLANT_MAX_NQ, HS_PLANT_MAX_NC, HS_PLANT_MAX_NZ)];
static int g_ints[HS_STEPPER_INTS(HS_PLANT_MAX_NQ, HS_PLANT_MAX_NC) + (1 << 14)];
static hs_plant g_p;

/* Compiles the description text into a model and binds a plant to it (map NULL: generic). */
static int plant_from(const char *text, const hs_signal_map *map, uint32_t fault_hold, hs_model *m)
{
    hs_mb_error err;
    char why[200];
    if (hs_mb_parse_compile(text, strlen(text), &g_store, &g_mb, 0, &err) != HS_OK) {
        printf("  description refused: line %d %s: %s\n", err.line, err.field, err.msg);
        return -1;
    }
    if (hs_plant_model_init(m, &g_mb.type, g_pblock, sizeof g_pblock, why, sizeof why) != HS_EXIT_OK) {
        printf("  model: %s\n", why);
        return -1;
    }
    m->desc = &g_mb;
    hs_plant_def def = hs_plant_default_def();
    def.map = map;
    def.fault_hold = fault_hold;
    if (hs_plant_initialize(&g_p, &def, m, g_reals, sizeof g_reals / sizeof g_reals[0], g_ints,
                            sizeof g_ints / sizeof g_ints[0], why, sizeof why) != HS_EXIT_OK) {
        printf("  plant: %s\n", why);
        return -1;
    }
    return 0;
}

static void nonfinite_energy(void)
{
    static const char text[] = "model fast dim=2\n"
                               "gravity 0,-10\n"
                               "body bob point2 mass=1 pos=0,0 vel=1e300,1e300\n"
                               "output energy\n";
    hs_model m;
    char what[200];
    printf("--- vel = 1e300,1e300 with an energy output (fault_hold 10)\n");
    if (plant_from(text, NULL, 10u, &m) != 0) {
        CHECK_NAMED(0, "plant initializes");
        return;
    }
    int bad_wire = 0, held = 0, safe_at = -1, frames = 0;
    for (int k = 0; k < 200 && g_p.stop == 0; ++k) {
        uint8_t out[HS_FRAME_MAX_BYTES];
        hs_frame_hdr h;
        double v[HS_FRAME_MAX_VALUES];
        size_t n = hs_plant_step(&g_p, (uint64_t)k, k == 199, out, sizeof out, NULL);
        frames++;
        if (hs_frame_parse(out, n, HS_FRAME_KIND_FROM_PLANT, 1u, &h, v) != HS_RX_OK) {
            bad_wire++;
            continue;
        }
        if ((h.flags & HS_FLAG_SAFE) != 0u) {
            safe_at = k;
        } else if ((h.flags & HS_FLAG_FAULT) != 0u && v[0] == 0.0) {
            held++;
        }
    }
    snprintf(what, sizeof what, "no frame with NaN/Inf on the wire (%d of %d frames undecodable)",
             bad_wire, frames);
    CHECK_NAMED(bad_wire == 0, what);
    snprintf(what, sizeof what, "9 frames held with FAULT (fallback 0 J: no valid output yet), got %d", held);
    CHECK_NAMED(held == 9, what);
    snprintf(what, sizeof what, "the 10th frame is SAFE|FINAL and the plant stops (safe at frame %d)",
             safe_at + 1);
    CHECK_NAMED(safe_at == 9 && g_p.stop == HS_PLANT_STOP_FAULT && g_p.final_built == 1, what);
    snprintf(what, sizeof what, "exit status 4 (HS_EXIT_STEP), got %d", hs_plant_exit_code(&g_p, 0, 0));
    CHECK_NAMED(hs_plant_exit_code(&g_p, 0, 0) == HS_EXIT_STEP, what);
#ifdef HS_PLANT_E_OUTPUT_NONFINITE
    snprintf(what, sizeof what, "status nonfinite_output, counted 10 times (last %d '%s', count %llu)",
             g_p.last_fault, hs_plant_fault_str(g_p.last_fault), (unsigned long long)g_p.out_nonfinite);
    CHECK_NAMED(g_p.last_fault == HS_PLANT_E_OUTPUT_NONFINITE && g_p.out_nonfinite == 10u &&
              strncmp(hs_plant_fault_str(g_p.last_fault), "nonfinite_output", 16) == 0,
                what);
#else
    CHECK_NAMED(0, "a status of its own for a non-finite output (HS_PLANT_E_OUTPUT_NONFINITE)");
#endif
}

/* t* = integral_0^{pi/6} dphi / sqrt(2 g sin phi) with phi = s^2 (regular integrand). */
static double fall_time(double g, double phi_end)
{
    const int n = 2000; /* even */
    const double b = sqrt(phi_end), hs = b / n;
    double sum = 0.0;
    for (int i = 0; i <= n; ++i) {
        const double s = i * hs;
        const double f = (i == 0) ? 2.0 / sqrt(2.0 * g) : 2.0 * s / sqrt(2.0 * g * sin(s * s));
        sum += f * ((i == 0 || i == n) ? 1.0 : (i % 2 ? 4.0 : 2.0));
    }
    return sum * hs / 3.0;
}

static void pendulum_range(void)
{
    static const char text[] = "model pendulum_mb dim=2\n"
                               "gravity 0,-10\n"
                               "body bob point2 mass=1 pos=1,0\n"
                               "joint rod distance a=bob b=ground length=1\n"
                               "output pos bob\n";
    static const hs_signal sig[] = {
        {"bob.x", "m", HS_SIG_OUT, 1.0, 0.0, -2.0, 2.0, 1.0, 0},
        {"bob.y", "m", HS_SIG_OUT, 1.0, 0.0, -0.5, 0.5, 0.0, 0},
    };
    static const hs_signal_map map = {"pendulum_range", sig, 2};
    hs_model m;
    char what[240];
    printf("--- pendulum from the horizontal, bob.y limited to [-0.5, 0.5] (fault_hold 3)\n");
    if (plant_from(text, &map, 3u, &m) != 0) {
        CHECK_NAMED(0, "plant initializes");
        return;
    }
    const double h = 1e-3, tstar = fall_time(10.0, asin(0.5));
    int first_fault = -1, out_of_range = 0, safe_at = -1;
    double last_ok_y = 1.0, held_y = 1.0, state_y_at_fault = 0.0;
    for (int k = 0; k < 2000 && g_p.stop == 0; ++k) {
        uint8_t out[HS_FRAME_MAX_BYTES];
        hs_frame_hdr hd;
        double v[HS_FRAME_MAX_VALUES];
        hs_tm_row row;
        size_t n = hs_plant_step(&g_p, (uint64_t)k, 0, out, sizeof out, &row);
        if (hs_frame_parse(out, n, HS_FRAME_KIND_FROM_PLANT, 2u, &hd, v) != HS_RX_OK) {
            out_of_range++;
            continue;
        }
        if (v[1] < -0.5 || v[1] > 0.5) {
            out_of_range++;
        }
        if ((hd.flags & HS_FLAG_SAFE) != 0u) {
            safe_at = k;
        } else if ((hd.flags & HS_FLAG_FAULT) != 0u) {
            if (first_fault < 0) {
                first_fault = k;
                state_y_at_fault = row.q[1];
            }
            held_y = v[1];
        } else {
            last_ok_y = v[1];
        }
    }
    /* Frame k carries the state at t = (k + 1) h: the first one past t* is refused. */
    const int want = (int)ceil(tstar / h) - 1;
    snprintf(what, sizeof what, "no bob.y outside [-0.5, 0.5] on the wire (%d frames)", out_of_range);
    CHECK_NAMED(out_of_range == 0, what);
    snprintf(what, sizeof what, "first refused frame %d at t = %.3f s, analytic crossing t* = %.5f s "
             "(frame %d, +-1), state bob.y there %.5f < -0.5", first_fault, (first_fault + 1) * h,
             tstar, want, state_y_at_fault);
    CHECK_NAMED(first_fault >= want - 1 && first_fault <= want + 1 && state_y_at_fault < -0.5, what);
    snprintf(what, sizeof what, "held value is the last in range (%.6f == %.6f, >= -0.5)", held_y, last_ok_y);
    CHECK_NAMED(held_y == last_ok_y && held_y >= -0.5, what);
    snprintf(what, sizeof what, "after fault_hold 3 the safe frame (at %d = first + 2), exit 4",
             safe_at);
    CHECK_NAMED(safe_at == first_fault + 2 && hs_plant_exit_code(&g_p, 0, 0) == HS_EXIT_STEP, what);
#ifdef HS_PLANT_E_OUTPUT_RANGE
    CHECK_NAMED(g_p.last_fault == HS_PLANT_E_OUTPUT_RANGE && g_p.out_range == 3u && g_p.out_nonfinite == 0u,
                "status output_range, counted 3 times");
#else
    CHECK_NAMED(0, "a status of its own for an output out of range (HS_PLANT_E_OUTPUT_RANGE)");
#endif
}

static const hs_test_case tests[] = {
    HS_TEST_ROW(nonfinite_energy),
    HS_TEST_ROW(pendulum_range),
};

int main(void)
{
    return hs_test_run("plant-unit", tests, HS_TEST_COUNT(tests), 0) != 0;
}
