# BouncingBall has one event indicator (z = h); declare two
s|numberOfEventIndicators="1"|numberOfEventIndicators="2"|
