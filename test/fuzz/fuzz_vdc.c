/* fuzz_vdc.c - libFuzzer harness of the car's control laws (hil/hs_vdc.c: ABS, ESC, driver).
 *
 * Input: byte 0 picks the ABS mode (abs, brake), select-low and the driver's profile; then
 * ticks of 7 doubles each (speed, four wheel speeds, yaw rate, time; any bits, NaN and
 * infinities included). Checked invariants (abort on violation): every brake torque is a
 * number within [0, demand] (ABS) or [0, tmax] (ESC), rises at most rate * dt per tick, the
 * ESC brakes at most one wheel, select-low gives both rear wheels one torque, the steering is
 * a number within its amplitude or the path hold's 0.6 rad, the drive a number within 3 kN m. */
#include "hs_vdc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void require(int ok)
{
    if (!ok) abort();
}

static int finite(double x)
{
    return x - x == 0.0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1u) return 0;
    const uint8_t sel = data[0];
    hs_abs_cfg ac = hs_abs_default();
    ac.select_low = (sel & 2u) != 0u;
    hs_abs_state abs;
    hs_esc_state esc;
    const hs_esc_cfg ec = hs_esc_default();
    require(hs_abs_init(&abs, &ac, 1 + (sel & 1u)) == HS_OK && hs_esc_init(&esc, &ec) == HS_OK);
    require(hs_abs_init(&abs, &ac, 3) != HS_OK); /* a mode out of range is refused */
    require(hs_abs_init(&abs, &ac, 1 + (sel & 1u)) == HS_OK);
    hs_drv_cfg d = hs_drv_default((hs_drv_kind)((sel >> 2) % 4u));
    d.amp = 0.1415;
    d.path_k = 0.1;
    d.v_ref = (sel & 0x10u) ? 22.0 : 0.0;
    const double dt = 1e-3;
    hs_real prev_a[4] = {0, 0, 0, 0}, prev_e[4] = {0, 0, 0, 0};
    data++;
    size--;
    for (; size >= 7u * sizeof(double); data += 7u * sizeof(double), size -= 7u * sizeof(double)) {
        double m[7];
        memcpy(m, data, sizeof m);
        hs_real om[4] = {m[1], m[2], m[3], m[4]}, Ta[4], Te[4], drive;
        hs_abs_step(&abs, m[0], om, dt, Ta);
        const hs_real steer = hs_drv_step(&d, m[6], m[1], m[2], m[0], &drive);
        hs_esc_step(&esc, m[0], steer, m[5], dt, Te);
        require(finite(steer) && steer >= -0.6 && steer <= 0.6 && finite(drive) && drive >= -3000.0 && drive <= 3000.0);
        int braked = 0;
        for (int w = 0; w < 4; ++w) {
            require(finite(Ta[w]) && Ta[w] >= 0.0 && Ta[w] <= ac.demand && Ta[w] <= prev_a[w] + ac.rate * dt * (1.0 + 1e-12));
            require(finite(Te[w]) && Te[w] >= 0.0 && Te[w] <= ec.tmax && Te[w] <= prev_e[w] + ec.rate * dt * (1.0 + 1e-12));
            braked += Te[w] > 0.0;
            prev_a[w] = Ta[w];
            prev_e[w] = Te[w];
        }
        require(braked <= 1);
        if (ac.select_low && abs.mode == 1 && m[0] >= ac.vmin && m[0] < 1e3) require(Ta[2] == Ta[3]);
    }
    return 0;
}
