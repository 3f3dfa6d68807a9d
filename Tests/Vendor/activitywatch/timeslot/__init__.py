from .timeslot import Timeslot
