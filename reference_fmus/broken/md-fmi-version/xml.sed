s|fmiVersion="2.0"|fmiVersion="2.0.4"|
