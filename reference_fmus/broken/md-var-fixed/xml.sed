# FMI 1.0: der(h) says fixed="true" but has no start value (B-203).
/name="der(h)"/{n;s|<Real unit="m/s"/>|<Real unit="m/s" fixed="true"/>|}
