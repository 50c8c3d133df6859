/* hs_contact_cq.c - the position factor for the contact stage in body velocities
 * (rt/hs_contact_fb.c), in a file below both forms of the stage: rt/hs_contact.c calls
 * rt/hs_contact_fb.c, and this keeps rt/hs_contact_fb.c from calling back into it.
 *
 * The same expression as hs_contact_cq (rt/hs_contact.c), written out a second time on
 * purpose: rt/hs_contact.c keeps its external definition, which gcc inlines into
 * hs_st_contact exactly as before (a shared static inline schedules that stage differently:
 * 3 to 21 instructions more per step, callgrind). A change to one must be made to both; the
 * free-body runs' pinned hashes (make contact-test, make mb-test) then catch a disagreement. */
#include "hs_contact_int.h"
#include "hs_stage.h"

hs_real hs_contact_cq_fb(const hs_stepper *s, hs_real h)
{
    if (s->velfirst != 0) {
        return h;
    }
    /* positions from a mean of u_n and u_{n+1}: the method's row says so (HS_MF_MIDVEL) */
    return ((s->mflags & HS_MF_MIDVEL) != 0u) ? (HS_R(0.5) * h) : HS_R(0.0);
}
