# FMI 1.0: e starts at 0.7 above its max 0.6 (derived in 1.0: a warning).
s|<Real min="0.5" max="1" start="0.7"/>|<Real min="0.5" max="0.6" start="0.7"/>|
