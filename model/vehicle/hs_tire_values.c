/* hs_tire_values.c - hs_tire_eval_values (hs_tire.h): the element of hs_tire.c compiled once
 * more with no partials carried (HS_TIRE_VALUES_ONLY), so the force and state-rate
 * evaluations, three of the four per wheel and step, are plain arithmetic. One source for
 * the formulas: the values are the same operations as hs_tire_eval's, bit for bit. */
#define HS_TIRE_VALUES_ONLY
#include "hs_tire.c"
