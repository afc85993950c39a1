# FMI 1.0 CS: the Capabilities declare canInterpolateInputs="true"
s|canInterpolateInputs="false"|canInterpolateInputs="true"|
