# a negative nominal
s|min="0.5" max="1" start="0.7"|min="0.5" max="1" nominal="-1" start="0.7"|
