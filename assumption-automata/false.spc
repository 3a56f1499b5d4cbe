// Nothing was explored: the first step of every path leaves the explored region (written by hand).
OBSERVER AUTOMATON AssumptionAutomaton

INITIAL STATE ARG0;

STATE __TRUE :
    TRUE -> GOTO __TRUE;

STATE __FALSE :
    TRUE -> GOTO __FALSE;

STATE USEFIRST ARG0 :
    TRUE -> GOTO __FALSE;

END AUTOMATON
