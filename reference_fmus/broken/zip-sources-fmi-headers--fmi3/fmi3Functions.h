/* a copy of the standard header the importer must provide (FMI 3.0.2 §2.5.1.3) */
