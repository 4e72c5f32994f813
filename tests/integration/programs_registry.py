"""The registry the program modules (programs_<topic>.py) add to: name -> source text,
and the mindtorch attributes each needs that are not implemented yet."""
PROGRAMS = {}
NEEDS = {}  # program -> mindtorch attributes it uses that are not implemented yet


def program(name, text, needs=()):
    PROGRAMS[name] = text
    NEEDS[name] = needs
