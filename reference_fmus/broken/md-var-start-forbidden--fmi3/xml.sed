# a start on der(h), initial calculated
s|initial="calculated" unit="m/s" derivative="1"|& start="0"|
