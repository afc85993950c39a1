#!/usr/bin/env python3
"""Write an FMU whose modelDescription.xml has N fixed Real parameters plus 10 outputs (the
document of bench_md_scale.c), for measuring the whole CLI's static run:
    python3 bench/make_scale_fmu.py 1000000 /tmp/scale1m.fmu
    /usr/bin/time -v ./build/fmucheck --only 'md-*' -q -o /tmp/out /tmp/scale1m.fmu"""
import sys
import zipfile

n = int(sys.argv[1])
out = sys.argv[2]
parts = ['<?xml version="1.0" encoding="UTF-8"?>\n'
         '<fmiModelDescription fmiVersion="2.0" modelName="Scale" guid="{scale}" '
         'generationTool="bench_md_scale">\n'
         '  <CoSimulation modelIdentifier="Scale"/>\n'
         '  <DefaultExperiment startTime="0" stopTime="1"/>\n'
         '  <ModelVariables>\n']
for i in range(n):
    parts.append('    <ScalarVariable name="p[%d]" valueReference="%d" causality="parameter" '
                 'variability="fixed">\n      <Real start="%d.25"/>\n    </ScalarVariable>\n'
                 % (i + 1, i, i % 1000))
for i in range(10):
    parts.append('    <ScalarVariable name="y[%d]" valueReference="%d" causality="output" '
                 'variability="discrete" initial="exact">\n      <Real start="0"/>\n'
                 '    </ScalarVariable>\n' % (i + 1, n + i))
parts.append('  </ModelVariables>\n  <ModelStructure>\n    <Outputs>\n')
for i in range(10):
    parts.append('      <Unknown index="%d" dependencies=""/>\n' % (n + i + 1))
parts.append('    </Outputs>\n  </ModelStructure>\n</fmiModelDescription>\n')
with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('modelDescription.xml', ''.join(parts))
