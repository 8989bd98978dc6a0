print("lamina")
