# initial="exact" on the independent variable time (initial must be absent there, B-206).
s|causality="independent" variability="continuous"|& initial="exact"|
