# a dependency naming no valueReference
s|<Output valueReference="3" dependencies="3"/>|<Output valueReference="3" dependencies="3 12"/>|
