#!/usr/bin/env python3
"""Write an FMU whose modelDescription.xml has N fixed parameters plus 10 outputs (the document of
bench_md_scale.c), for measuring the whole CLI's static run:
    python3 bench/make_scale_fmu.py 1000000 /tmp/scale1m.fmu            # FMI 2.0
    python3 bench/make_scale_fmu.py --fmi3 1000000 /tmp/scale1m3.fmu    # FMI 3.0
    /usr/bin/time -v ./build/fmucheck --only 'md-*' -q -o /tmp/out /tmp/scale1m.fmu
The FMI 3.0 document has the same content in 3.0's form: Float64 parameters, Float64 outputs,
instantiationToken, Output elements with valueReference dependencies."""
import sys
import zipfile


def fmi2(n):
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
    return parts


def fmi3(n):
    parts = ['<?xml version="1.0" encoding="UTF-8"?>\n'
             '<fmiModelDescription fmiVersion="3.0" modelName="Scale" '
             'instantiationToken="{scale}" generationTool="bench_md_scale">\n'
             '  <CoSimulation modelIdentifier="Scale"/>\n'
             '  <DefaultExperiment startTime="0" stopTime="1"/>\n'
             '  <ModelVariables>\n']
    for i in range(n):
        parts.append('    <Float64 name="p[%d]" valueReference="%d" causality="parameter" '
                     'variability="fixed" start="%d.25"/>\n' % (i + 1, i, i % 1000))
    for i in range(10):
        parts.append('    <Float64 name="y[%d]" valueReference="%d" causality="output" '
                     'variability="discrete" initial="exact" start="0"/>\n' % (i + 1, n + i))
    parts.append('  </ModelVariables>\n  <ModelStructure>\n')
    for i in range(10):
        parts.append('    <Output valueReference="%d" dependencies=""/>\n' % (n + i))
    parts.append('  </ModelStructure>\n</fmiModelDescription>\n')
    return parts


def main():
    args = sys.argv[1:]
    version3 = args and args[0] == "--fmi3"
    if version3:
        args = args[1:]
    n, out = int(args[0]), args[1]
    parts = fmi3(n) if version3 else fmi2(n)
    with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
        z.writestr('modelDescription.xml', ''.join(parts))


if __name__ == "__main__":
    main()
