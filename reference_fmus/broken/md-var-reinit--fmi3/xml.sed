# reinit on der(h), which is no state
s|initial="calculated" unit="m/s" derivative="1"|& reinit="true"|
