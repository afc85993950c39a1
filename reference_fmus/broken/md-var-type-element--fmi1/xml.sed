# FMI 1.0: der(x) has no type element.
/name="der(x)"/{n;s|<Real/>||}
