// Everything was explored: the automaton accepts every path (written by hand).
OBSERVER AUTOMATON AssumptionAutomaton

INITIAL STATE ARG0;

STATE __TRUE :
    TRUE -> GOTO __TRUE;

STATE USEFIRST ARG0 :
    TRUE -> GOTO __TRUE;

END AUTOMATON
