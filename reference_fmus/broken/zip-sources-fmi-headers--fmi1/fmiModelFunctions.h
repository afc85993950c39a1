/* a copy of the FMI 1.0 header (stand-in) */
