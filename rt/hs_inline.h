/* hs_inline.h - HS_INLINE, the one way a per-step function is split into named stages without
 * changing the code it compiles to. A stage written as a static function called once is
 * inlined by gcc -O2 only within its size limits, and by clang and arm-none-eabi-gcc by their
 * own rules, so a split could move the published instruction counts (test/bench/MEASUREMENTS.md,
 * model/CONTACT.md); forced inlining makes every compiler emit the caller as if the stage's
 * body were written in it. */
#ifndef HS_INLINE_H
#define HS_INLINE_H

/* A stage of one per-step function: compiled into its caller on every supported compiler. */
#ifdef __GNUC__
#define HS_INLINE static inline __attribute__((always_inline))
#else
#define HS_INLINE static inline
#endif

#endif
