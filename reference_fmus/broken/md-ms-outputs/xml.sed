# Leave the output E out of ModelStructure/Outputs (B-402).
\|<Unknown index="6" dependencies="2 3"/>|d
