# CoSimulation lists a source file that the archive does not contain (A-19).
s|\(<CoSimulation [^>]*\)/>|\1>\n    <SourceFiles><File name="model.c"/></SourceFiles>\n  </CoSimulation>|
