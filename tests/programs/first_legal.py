"""The policy of examples/first_legal.sh as a bot class (the level hook), for the differential
test of tests/test_programs.py: the same moves in process and through a pipe."""


class FirstLegal:
    level = "first_legal"

    def __init__(self, seed=0, simulations=None):
        pass

    def choose_pass(self, view):
        return tuple(view.hand[:3])

    def choose_card(self, view):
        return view.legal[0]
