# start above max
s|min="0.5" max="1" start="0.7"|min="0.5" max="1" start="1.5"|
