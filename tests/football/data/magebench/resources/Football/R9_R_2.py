
from . import *

def build_scenario(builder):
    builder.config().game_duration = 400
    builder.config().deterministic = False
    builder.config().offsides = False
    builder.config().end_episode_on_score = True
    builder.config().end_episode_on_out_of_play = True
    builder.config().end_episode_on_possession_change = True
    builder.config().right_team_difficulty = 0.0
    builder.config().left_team_difficulty = 1.0
    builder.SetBallPosition(0.8147, 0.3013)

    builder.SetTeam(Team.e_Left)

    builder.AddPlayer(-0.9852, 0.0015, e_PlayerRole_GK)
    builder.AddPlayer(0.303, 0.0583, e_PlayerRole_LB)
    builder.AddPlayer(0.4921, 0.0549, e_PlayerRole_LB)
    builder.AddPlayer(0.5566, 0.1511, e_PlayerRole_DM)
    builder.AddPlayer(0.5631, -0.3158, e_PlayerRole_RM)
    builder.AddPlayer(0.634, -0.0142, e_PlayerRole_LM)
    builder.AddPlayer(0.6878, -0.3073, e_PlayerRole_LB)
    builder.AddPlayer(0.6909, 0.0293, e_PlayerRole_CF)
    builder.AddPlayer(0.9458, 0.0352, e_PlayerRole_LB)


    builder.SetTeam(Team.e_Right)

    builder.AddPlayer(-0.9884, -0.0062, e_PlayerRole_GK)
    builder.AddPlayer(-0.9236, -0.2207, e_PlayerRole_RB)
    builder.AddPlayer(-0.8368, 0.0296, e_PlayerRole_AM)
    builder.AddPlayer(-0.6408, -0.1988, e_PlayerRole_RB)
    builder.AddPlayer(-0.6384, 0.313, e_PlayerRole_DM)
    builder.AddPlayer(-0.6337, 0.3467, e_PlayerRole_CM)
    builder.AddPlayer(-0.632, 0.1711, e_PlayerRole_CM)
    builder.AddPlayer(-0.514, 0.1114, e_PlayerRole_CB)
    builder.AddPlayer(-0.4232, -0.0507, e_PlayerRole_CB)
