/* me-event-flags--next-event-now fixture, no defect: Stair (Model Exchange only) whose time
 * event at t = 4 s ends its event iteration announcing nextEventTime = 4 s, the instant just
 * handled, once. "The simulation shall integrate at most until time = nextEventTime, and shall
 * call fmi2EnterEventMode at this time instant" (FMI 2.0.4 §3.2.2): the host integrates nothing
 * and enters Event Mode again at 4 s, where the next answer is 5 s. Legal, if odd. */
#define STAIR_ANNOUNCE_NOW_ONCE
#include "../me-event-flags--next-event-time/model.c"
