# der(h) (initial calculated) is not listed
\|<InitialUnknown valueReference="2" dependencies="3"/>|d
