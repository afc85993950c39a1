# start above max (the XML's max lowered below the start value the binary also uses)
s|min="0.5" max="1" start="0.7"|min="0.5" max="0.6" start="0.7"|
