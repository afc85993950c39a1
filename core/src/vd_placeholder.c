/* Placeholder until the core lands; delete when vd_*.c exist. */
int vd_placeholder_(void);
int vd_placeholder_(void) { return 0; }
