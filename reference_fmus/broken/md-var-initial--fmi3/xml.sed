# initial on the independent variable
s|causality="independent" variability="continuous"|& initial="exact"|
