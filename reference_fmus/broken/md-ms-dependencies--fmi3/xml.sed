# an output depending on der(h), which is no known
s|<Output valueReference="3" dependencies="3"/>|<Output valueReference="3" dependencies="3 2"/>|
