/* hs_replay_none.c - the input table of the images built without INPUTS: no rows, so every
 * input stays on its fallback (hs_replay.h). An INPUTS build links the generated table
 * (port/cortex-m/inputs_table.py) in its place, into images of their own (*-inputs.elf). */
#include "hs_replay.h"

const hs_replay_table hs_replay_inputs = {"", 0u, 0u, 0, NULL, NULL, NULL, NULL};
