
import gfootball_engine as libgame
e_PlayerRole_GK = libgame.e_PlayerRole.e_PlayerRole_GK
e_PlayerRole_CB = libgame.e_PlayerRole.e_PlayerRole_CB
e_PlayerRole_LB = libgame.e_PlayerRole.e_PlayerRole_LB
e_PlayerRole_RB = libgame.e_PlayerRole.e_PlayerRole_RB
e_PlayerRole_DM = libgame.e_PlayerRole.e_PlayerRole_DM
e_PlayerRole_CM = libgame.e_PlayerRole.e_PlayerRole_CM
e_PlayerRole_LM = libgame.e_PlayerRole.e_PlayerRole_LM
e_PlayerRole_RM = libgame.e_PlayerRole.e_PlayerRole_RM
e_PlayerRole_AM = libgame.e_PlayerRole.e_PlayerRole_AM
e_PlayerRole_CF = libgame.e_PlayerRole.e_PlayerRole_CF
Team = libgame.e_Team

def build_scenario(builder):
    builder.config().game_duration = 400
    builder.config().deterministic = False
    builder.config().offsides = False
    builder.config().end_episode_on_score = True
    builder.config().end_episode_on_out_of_play = True
    builder.config().end_episode_on_possession_change = True
    builder.config().right_team_difficulty = 0.05
    builder.config().left_team_difficulty = 1.0
    builder.SetBallPosition(0.0413, 0.0587)

    builder.SetTeam(Team.e_Left)

    builder.AddPlayer(-0.983, -0.005, e_PlayerRole_GK, controllable=False)
    builder.AddPlayer(-0.3744, 0.2482, e_PlayerRole_DM)
    builder.AddPlayer(-0.2102, 0.0064, e_PlayerRole_CB)
    builder.AddPlayer(0.0874, 0.1692, e_PlayerRole_RM)
    builder.AddPlayer(0.1711, 0.3315, e_PlayerRole_CM)
    builder.AddPlayer(0.176, 0.2855, e_PlayerRole_CB)
    builder.AddPlayer(0.2088, -0.1623, e_PlayerRole_AM)
    builder.AddPlayer(0.3918, -0.088, e_PlayerRole_AM)


    builder.SetTeam(Team.e_Right)

    builder.AddPlayer(-0.9892, 0.0012, e_PlayerRole_GK)
    builder.AddPlayer(-0.5312, -0.2538, e_PlayerRole_CF)
    builder.AddPlayer(-0.3385, 0.2388, e_PlayerRole_LB)
    builder.AddPlayer(-0.292, -0.0344, e_PlayerRole_CF, lazy=True)
    builder.AddPlayer(-0.137, 0.2476, e_PlayerRole_CB)
    builder.AddPlayer(-0.0672, 0.2687, e_PlayerRole_LB, True, False)
    builder.AddPlayer(0.1984, 0.2834, e_PlayerRole_RB)
    builder.AddPlayer(0.28, -0.2611, e_PlayerRole_DM)
    builder.AddPlayer(0.384, -0.2645, e_PlayerRole_DM)
    builder.AddPlayer(0.4121, 0.1445, e_PlayerRole_CB)
