/* me-event-flags--next-event-stuck fixture: Stair (Model Exchange only) whose time event at
 * t = 4 s ends every event iteration announcing nextEventTime = 4 s, the instant just handled:
 * legal once (the host enters Event Mode again at once), but without end time never advances
 * past 4 s (FMI 2.0.4 §3.2.2). */
#define STAIR_ANNOUNCE_NOW
#include "../me-event-flags--next-event-time/model.c"
