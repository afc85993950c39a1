# max="INF": a valid xs:double in FMI 3.0, but no usable bound (B-008)
s|min="0.5" max="1"|min="0.5" max="INF"|
