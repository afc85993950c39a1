# DefaultExperiment moved before LogCategories (B-002).
/<DefaultExperiment /d
s|  <LogCategories>|  <DefaultExperiment startTime="0" stopTime="2" stepSize="0.01"/>\n&|
