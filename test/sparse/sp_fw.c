/* sp_fw.c - build/cortex-m/m7/hilstep-sparse.elf: the chain or ladder stepped on the board
 * with the sparse backend, every step timed alone on SysTick (1 count = 40 instructions under
 * -icount shift=0). Command line (semihosting): MODEL N CONFIG STEPS, CONFIG = default | galpha | spook.
 * Prints the lines hilstep-spbench prints on the host for the same run:
 *   trajectory-hash MODEL-nN CONFIG STEPS 0x<16 hex>
 *   step-cost MODEL-nN CONFIG min=<instr> max=<instr> mean=<instr> instructions
 * Exit status: 0 ok, 2 bad command line or init, 4 a refused step. */
#include "hs_board.h"
#include "hs_hash.h"
#include "hs_models.h"
#include "hs_stepper.h"

#define REG(a) (*(volatile uint32_t *)(uintptr_t)(a))
#define SYST_CSR REG(0xE000E010u)
#define SYST_RVR REG(0xE000E014u)
#define SYST_CVR REG(0xE000E018u)

/* Arenas for ladder n = 20 / chain n = 32 (26,710 reals and 57,575 ints measured for the
 * ladder's default configuration) with room to spare; init checks them. */
static hs_real R[40000];
static int I[100000];
static int T[100000]; /* scratch of the workspace query (half for the block list) */

static hs_model model;
static union { hs_real r[32]; double align; } params;
static hs_stepper S;

int main(void)
{
    char cmd[160];
    const char *argv[8];
    int argc = 0;
    if (hs_cmdline(cmd, (int)sizeof cmd) < 0) return HS_EXIT_USAGE;
    for (char *p = cmd; *p && argc < 8;) {
        while (*p == ' ') *p++ = '\0';
        if (!*p) break;
        argv[argc++] = p;
        while (*p && *p != ' ') ++p;
    }
    /* argv[0] is the kernel name */
    if (argc < 5) { hs_con_puts("usage: MODEL N CONFIG STEPS\n"); return HS_EXIT_USAGE; }
    const hs_model_type *type = hs_model_find(argv[1]);
    const long n = hs_parse_ulong(argv[2]), steps = hs_parse_ulong(argv[4]);
    const int spook = hs_streq(argv[3], "spook"), galpha = hs_streq(argv[3], "galpha");
    if (!type || n < 1 || steps < 1 || (!spook && !galpha && !hs_streq(argv[3], "default"))) {
        hs_con_puts("bad arguments\n");
        return HS_EXIT_USAGE;
    }
    hs_model_init(&model, type, &params);
    if (hs_model_set_param(&model, "n", (hs_real)n) != HS_OK) { hs_con_puts("bad n\n"); return HS_EXIT_USAGE; }
    hs_stepper_def d = hs_stepper_default_def();
    /* the cost of the step, also past the default's range check at init (which refuses the
     * ladder, whose cells fold flat, and the long chains at this h) */
    d.max_h_omega = HS_R(0.0);
    if (spook) {
        d.method = HS_METHOD_SPOOK;
        d.stab = HS_STAB_NONE;
    }
    if (galpha) d.method = HS_METHOD_GALPHA;
    size_t nr = 0, ni = 0;
    int rc = hs_stepper_workspace_tmp(&d, &model, T, sizeof T / sizeof T[0], &nr, &ni);
    if (rc == HS_OK) rc = hs_stepper_init(&S, &d, &model, HS_R(0.0), R, sizeof R / sizeof R[0], I, sizeof I / sizeof I[0]);
    if (rc) {
        hs_con_puts("init failed: ");
        hs_con_puts(hs_status_str(rc));
        hs_con_puts("\n");
        return HS_EXIT_USAGE;
    }
    /* free-running 24-bit down counter on the processor clock, no interrupt */
    SYST_CSR = 0;
    SYST_RVR = 0xFFFFFFu;
    SYST_CVR = 0;
    SYST_CSR = (1u << 0) | (1u << 2);
    uint64_t hash = HS_HASH_INIT, sum = 0;
    uint32_t cmin = 0xFFFFFFFFu, cmax = 0;
    for (long k = 0; k < steps; ++k) {
        const uint32_t c0 = SYST_CVR;
        rc = hs_stepper_step(&S, NULL);
        const uint32_t c1 = SYST_CVR;
        if (rc) {
            hs_con_puts("step refused: ");
            hs_con_puts(hs_status_str(rc));
            hs_con_puts("\n");
            return HS_EXIT_STEP;
        }
        const uint32_t dt = (c0 - c1) & 0xFFFFFFu;
        cmin = dt < cmin ? dt : cmin;
        cmax = dt > cmax ? dt : cmax;
        sum += dt;
        hash = hs_stepper_hash(&S, hash);
    }
    hs_con_puts("trajectory-hash ");
    hs_con_puts(argv[1]);
    hs_con_puts("-n");
    hs_con_u64((uint64_t)n);
    hs_con_puts(" ");
    hs_con_puts(argv[3]);
    hs_con_puts(" ");
    hs_con_u64((uint64_t)steps);
    hs_con_puts(" 0x");
    hs_con_hex(hash, 16);
    hs_con_puts("\nstep-cost ");
    hs_con_puts(argv[1]);
    hs_con_puts("-n");
    hs_con_u64((uint64_t)n);
    hs_con_puts(" ");
    hs_con_puts(argv[3]);
    hs_con_puts(" min=");
    hs_con_u64((uint64_t)cmin * HS_INSN_PER_COUNT);
    hs_con_puts(" max=");
    hs_con_u64((uint64_t)cmax * HS_INSN_PER_COUNT);
    hs_con_puts(" mean=");
    hs_con_u64(sum * HS_INSN_PER_COUNT / (uint64_t)steps);
    hs_con_puts(" instructions\n");
    return HS_EXIT_OK;
}
