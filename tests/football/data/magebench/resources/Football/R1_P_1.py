
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
    builder.config().right_team_difficulty = 0.0
    builder.config().left_team_difficulty = 1.0
    builder.SetBallPosition(-0.7733, -0.3187)

    builder.SetTeam(Team.e_Left)

    builder.AddPlayer(-0.9888, 0.0058, e_PlayerRole_GK)
    builder.AddPlayer(-0.7297, -0.3746, e_PlayerRole_LM)
    builder.AddPlayer(-0.6794, 0.3059, e_PlayerRole_CM)
    builder.AddPlayer(-0.5804, 0.3936, e_PlayerRole_LB)
    builder.AddPlayer(-0.5487, -0.1747, e_PlayerRole_CB)
    builder.AddPlayer(-0.2784, 0.0959, e_PlayerRole_CB)
    builder.AddPlayer(-0.0777, -0.1939, e_PlayerRole_RM)
    builder.AddPlayer(-0.0457, -0.1168, e_PlayerRole_AM)
    builder.AddPlayer(-0.0042, 0.2321, e_PlayerRole_CF)
    builder.AddPlayer(0.0195, 0.2674, e_PlayerRole_CB)
    builder.AddPlayer(0.0274, 0.2296, e_PlayerRole_RM)


    builder.SetTeam(Team.e_Right)

    builder.AddPlayer(-0.9844, 0.0065, e_PlayerRole_GK)
    builder.AddPlayer(-0.2752, -0.369, e_PlayerRole_DM)
    builder.AddPlayer(-0.2388, 0.2076, e_PlayerRole_RM)
    builder.AddPlayer(-0.1249, -0.084, e_PlayerRole_CM)
    builder.AddPlayer(-0.0606, 0.1884, e_PlayerRole_CB)
    builder.AddPlayer(0.0028, 0.1045, e_PlayerRole_CF)
    builder.AddPlayer(0.2646, -0.2834, e_PlayerRole_RB)
    builder.AddPlayer(0.4395, 0.3536, e_PlayerRole_CM)
    builder.AddPlayer(0.4698, -0.1004, e_PlayerRole_CF)
    builder.AddPlayer(0.7887, -0.2193, e_PlayerRole_LM)
    builder.AddPlayer(0.7904, 0.1375, e_PlayerRole_DM)
