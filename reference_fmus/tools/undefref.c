/* An object that calls a function nothing defines. Linked whole into a fixture library with
 * unresolved symbols allowed, it makes dlopen(RTLD_NOW) of that library fail with "undefined
 * symbol" (fixture load-dlopen--undefined-symbol, via LINK_OPTIONS @TOOLS_DIR@). */
void fmuc_fixture_absent(void);
void fmuc_fixture_calls_absent(void);
void fmuc_fixture_calls_absent(void)
{
    fmuc_fixture_absent();
}
