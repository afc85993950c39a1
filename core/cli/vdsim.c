/* Placeholder vdsim command. */
int main(void) { return 1; }
