# nominal="INF" on the position x (B-006).
s|<Real unit="m" nominal="0.05"/>|<Real unit="m" nominal="INF"/>|
