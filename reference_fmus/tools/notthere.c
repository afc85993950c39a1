/* A stub library that fixture FMU libraries link against but that is never shipped. */
int fmuc_fixture_notthere(void);
int fmuc_fixture_notthere(void)
{
    return 42;
}
