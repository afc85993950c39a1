# FMI 1.0: x has a negative nominal (derived in 1.0: a warning).
s|nominal="10"|nominal="-10"|
