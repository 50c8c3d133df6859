/* fixture.c - self-test of the MISRA gate (test/misra/misra.sh): two violations of rule 15.6
 * (an if body without braces); the first carries an inline tag, the second does not, so the
 * gate must report exactly one open finding. Never compiled into anything. */
int hs_fixture(int a);
int hs_fixture(int a)
{
    int r = 0;
    /* MISRA Ref 15.6.1 [self-test permit, see selftest/DEVIATIONS.md] */
    if (a > 0) r = 1;
    if (a < 0) r = 2;
    return r;
}
