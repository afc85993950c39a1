# the output impacts is not listed
\|<Output valueReference="8" dependencies=""/>|d
