# Leave the output E (initial="calculated") out of InitialUnknowns (B-405, G-03).
\|<Unknown index="6" dependencies="3 8 9 11"/>|d
